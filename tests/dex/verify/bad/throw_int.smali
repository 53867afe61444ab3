# rule: throw needs a reference
# expect: v0 is the constant 1, expected an initialized reference
.class public LBadThrowInt;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 1
    throw v0
.end method
