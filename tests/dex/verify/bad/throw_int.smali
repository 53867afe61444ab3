# rule: throw needs a reference
# expect: v0 is a 32-bit constant, expected an initialized reference
.class public LBadThrowInt;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 1
    throw v0
.end method
