# rule: an uninitialized object may not be returned
# expect: v0 is uninitialized Ljava/lang/Object; (new-instance at 0), expected an initialized reference
.class public LBadUninitReturn;
.super Ljava/lang/Object;

.method public static f()Ljava/lang/Object;
    .registers 1
    new-instance v0, Ljava/lang/Object;
    return-object v0
.end method
