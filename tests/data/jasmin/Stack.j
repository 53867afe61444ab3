; tc-version 47.0
; Stack shuffles on one- and two-word values, long and double constants and
; arithmetic, static fields.
.class public tcjas/Stack
.super java/lang/Object
.field public static counter J

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

; b * 1000000007 + a + (long) 2.5 - (2 - 1), through dup_x2, dup2_x1, dup2_x2,
; swap and a static long
.method public static mix(IJ)J
   .limit stack 8
   .limit locals 3
   lload_1
   ldc2_w 1000000007
   lmul
   iload_0
   dup_x2
   pop
   dup2_x1
   pop2
   i2l
   ladd
   dup2
   getstatic tcjas/Stack/counter J
   ladd
   putstatic tcjas/Stack/counter J
   ldc2_w 2.5
   dup2_x2
   pop2
   dup2_x2
   pop2
   d2l
   ladd
   iconst_1
   iconst_2
   swap
   isub
   i2l
   lsub
   lreturn
.end method

.method public static fp(FD)D
   .limit stack 6
   .limit locals 3
   fload_0
   f2d
   dload_1
   dmul
   ldc 1.5
   f2d
   dadd
   dup2
   dneg
   dsub
   dreturn
.end method
