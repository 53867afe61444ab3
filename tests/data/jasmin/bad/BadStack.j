; tc-version 49.0
; Negative control: HotSpot's verifier must reject this (an int returned as a
; reference), or the verification steps of the tests prove nothing.
.class public tcjas/BadStack
.super java/lang/Object

.method public static f()Ljava/lang/Object;
   .limit stack 1
   .limit locals 0
   iconst_1
   areturn
.end method
