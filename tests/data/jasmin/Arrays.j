; tc-version 48.0
; Arrays of every kind, multianewarray, casts, interface calls, wide iinc.
.class public tcjas/Arrays
.super java/lang/Object

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

.method public static grid(I)I
   .limit stack 4
   .limit locals 4
   iload_0
   iload_0
   multianewarray [[I 2
   astore_1
   aload_1
   iconst_0
   aaload
   iconst_0
   bipush 42
   iastore
   iload_0
   newarray long
   astore_2
   aload_2
   iconst_1
   ldc2_w 9
   lastore
   iload_0
   anewarray java/lang/String
   astore_3
   aload_3
   iconst_0
   ldc "abc"
   aastore
   aload_1
   iconst_0
   aaload
   iconst_0
   iaload
   aload_2
   iconst_1
   laload
   l2i
   iadd
   aload_3
   iconst_0
   aaload
   checkcast java/lang/CharSequence
   invokeinterface java/lang/CharSequence/length()I 1
   iadd
   aload_3
   instanceof [Ljava/lang/Object;
   iadd
   aload_3
   arraylength
   iadd
   ireturn
.end method

.method public static bump(I)I
   .limit stack 1
   .limit locals 1
   iinc 0 30000
   iinc 0 -1
   iload_0
   ireturn
.end method
