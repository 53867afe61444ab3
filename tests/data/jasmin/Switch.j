; tc-version 46.0
; tableswitch and lookupswitch at different alignments, a typed handler.
.class public tcjas/Switch
.super java/lang/Object

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

.method public static table(I)I
   .limit stack 1
   .limit locals 1
   iload_0
   tableswitch -1 2
      Lm1
      L0
      L1
      L2
      default : Ldef
Lm1:
   bipush -10
   ireturn
L0:
   iconst_0
   ireturn
L1:
   bipush 10
   ireturn
L2:
   bipush 20
   ireturn
Ldef:
   iconst_m1
   ireturn
.end method

.method public static lookup(I)I
   .limit stack 2
   .limit locals 1
   nop
   nop
   iload_0
   lookupswitch
      -100000 : La
      7 : Lb
      65536 : Lc
      default : Ld
La:
   ldc 111
   ireturn
Lb:
   sipush 222
   ireturn
Lc:
   sipush 333
   ireturn
Ld:
   iload_0
   iconst_2
   imul
   ireturn
.end method

; 10 / x, or -1 when x == 0 (ArithmeticException caught)
.method public static safediv(I)I
   .limit stack 2
   .limit locals 2
Lb:
   bipush 10
   iload_0
   idiv
Le:
   ireturn
Lh:
   astore_1
   iconst_m1
   ireturn
   .catch java/lang/ArithmeticException from Lb to Le using Lh
.end method
