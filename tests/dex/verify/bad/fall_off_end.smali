# rule: execution must not fall off the end of the code
# expect: execution falls off the end of the code
.class public LBadFallOffEnd;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 0
.end method
