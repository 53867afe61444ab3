# rule: an uninitialized object may not be passed as an argument
# expect: v0 is uninitialized Ljava/lang/Object; (new-instance at 0), expected an initialized reference
.class public LBadUninitArg;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    new-instance v0, Ljava/lang/Object;
    invoke-static {v0}, Ljava/util/Objects;->hashCode(Ljava/lang/Object;)I
    return-void
.end method
