; tc-version 49.0
; javac 1.4 style: a synchronized block and a try/finally inside a loop with
; continue, the finally as a subroutine called from three places.
.class public tcjas/Finally
.super java/lang/Object

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

.method public static sync(Ljava/lang/Object;I)I
   .limit stack 2
   .limit locals 5
   aload_0
   dup
   astore_2
   monitorenter
Lb:
   iload_1
   iconst_2
   imul
   istore_3
   aload_2
   monitorexit
Le:
   iload_3
   ireturn
Lh:
   astore 4
   aload_2
   monitorexit
   aload 4
   athrow
   .catch all from Lb to Le using Lh
.end method

; for (i = 0; i < n; i++) { try { if (i % 2 == 0) continue; s += i; } finally { s++; } }
.method public static loop(I)I
   .limit stack 2
   .limit locals 5
   iconst_0
   istore_1
   iconst_0
   istore_2
Lhead:
   iload_2
   iload_0
   if_icmpge Lend
Ltry:
   iload_2
   iconst_2
   irem
   ifne Lodd
   jsr Lfin
   goto Lnext
Lodd:
   iload_1
   iload_2
   iadd
   istore_1
Ltryend:
   jsr Lfin
   goto Lnext
Lany:
   astore_3
   jsr Lfin
   aload_3
   athrow
Lfin:
   astore 4
   iinc 1 1
   ret 4
Lnext:
   iinc 2 1
   goto Lhead
Lend:
   iload_1
   ireturn
   .catch all from Ltry to Ltryend using Lany
.end method
