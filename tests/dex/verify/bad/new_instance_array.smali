# rule: new-instance takes a class type, never an array or primitive (CheckNewInstance)
# expect: new-instance of [I
.class public LBadNewInstanceArray;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    new-instance v0, [I
    return-void
.end method
