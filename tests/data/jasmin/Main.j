; tc-version 49.0
; Runs every method of the corpus and prints the results, so that the output of the
; classes as assembled and as edited can be compared.
.class public tcjas/Main
.super java/lang/Object

.method public <init>()V
   aload_0
   invokespecial java/lang/Object/<init>()V
   return
.end method

.method public static show(I)V
   .limit stack 2
   .limit locals 1
   getstatic java/lang/System/out Ljava/io/PrintStream;
   iload_0
   invokevirtual java/io/PrintStream/println(I)V
   return
.end method

.method public static main([Ljava/lang/String;)V
   .limit stack 5
   .limit locals 2
   bipush 7
   iconst_2
   invokestatic tcjas/Subs/fin(II)I
   invokestatic tcjas/Main/show(I)V
Lb:
   iconst_1
   iconst_0
   invokestatic tcjas/Subs/fin(II)I
   invokestatic tcjas/Main/show(I)V
Le:
   goto Lafter
Lh:
   pop
   sipush 999
   invokestatic tcjas/Main/show(I)V
Lafter:
   iconst_0
   invokestatic tcjas/Subs/nested(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_5
   invokestatic tcjas/Subs/loop(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_3
   invokestatic tcjas/Subs/wide(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_m1
   invokestatic tcjas/Switch/table(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_2
   invokestatic tcjas/Switch/table(I)I
   invokestatic tcjas/Main/show(I)V
   bipush 9
   invokestatic tcjas/Switch/table(I)I
   invokestatic tcjas/Main/show(I)V
   ldc 65536
   invokestatic tcjas/Switch/lookup(I)I
   invokestatic tcjas/Main/show(I)V
   bipush 8
   invokestatic tcjas/Switch/lookup(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_0
   invokestatic tcjas/Switch/safediv(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_3
   ldc2_w 11
   invokestatic tcjas/Stack/mix(IJ)J
   l2i
   invokestatic tcjas/Main/show(I)V
   fconst_2
   ldc2_w 3.0
   invokestatic tcjas/Stack/fp(FD)D
   d2i
   invokestatic tcjas/Main/show(I)V
   iconst_4
   invokestatic tcjas/Arrays/grid(I)I
   invokestatic tcjas/Main/show(I)V
   iconst_1
   invokestatic tcjas/Arrays/bump(I)I
   invokestatic tcjas/Main/show(I)V
   new java/lang/Object
   dup
   invokespecial java/lang/Object/<init>()V
   bipush 21
   invokestatic tcjas/Finally/sync(Ljava/lang/Object;I)I
   invokestatic tcjas/Main/show(I)V
   bipush 6
   invokestatic tcjas/Finally/loop(I)I
   invokestatic tcjas/Main/show(I)V
   return
   .catch java/lang/ArithmeticException from Lb to Le using Lh
.end method
