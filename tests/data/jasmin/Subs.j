; tc-version 45.3
; Subroutines (jsr/ret) as javac 1.1-1.3 compiled finally: a try/finally with a
; catch-all that runs the finally and rethrows, nested subroutines, a subroutine
; called in a loop, and jsr_w/goto_w with wide ret and iinc.
.class public tcjas/Subs
.super java/lang/Object

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

; try { r = a / b; } finally { r += 100; } return r;
.method public static fin(II)I
   .limit stack 2
   .limit locals 5
   iconst_0
   istore_2
Ltry:
   iload_0
   iload_1
   idiv
   istore_2
   jsr Lfinally
   iload_2
   ireturn
Ltryend:
Lany:
   astore_3
   jsr Lfinally
   aload_3
   athrow
Lfinally:
   astore 4
   iinc 2 100
   ret 4
   .catch all from Ltry to Ltryend using Lany
.end method

; a subroutine that calls another: 1 + 100 + 10
.method public static nested(I)I
   .limit stack 2
   .limit locals 4
   iload_0
   istore_1
   jsr LA
   iload_1
   ireturn
LA:
   astore_2
   iinc 1 1
   jsr LB
   iinc 1 10
   ret 2
LB:
   astore_3
   iinc 1 100
   ret 3
.end method

; n calls of a subroutine in a loop: 3n
.method public static loop(I)I
   .limit stack 2
   .limit locals 3
   iconst_0
   istore_1
Lhead:
   iload_0
   ifle Ldone
   jsr Lsub
   iinc 0 -1
   goto Lhead
Ldone:
   iload_1
   ireturn
Lsub:
   astore_2
   iinc 1 3
   ret 2
.end method

; jsr_w and goto_w; the subroutine's return address and counter live past local 255
.method public static wide(I)I
   .limit stack 2
   .limit locals 302
   iload_0
   istore 300
   jsr_w Lsub
   goto_w Lend
Lsub:
   astore 299
   iinc 300 1000
   ret 299
Lend:
   iload 300
   ireturn
.end method
