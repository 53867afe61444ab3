# rule: an uninitialized object may not be stored (static field)
# expect: v0 is uninitialized Ljava/lang/Object; (new-instance at 0), expected an initialized reference
.class public LBadUninitStore;
.super Ljava/lang/Object;

.field static sink:Ljava/lang/Object;

.method public static f()V
    .registers 1
    new-instance v0, Ljava/lang/Object;
    sput-object v0, LBadUninitStore;->sink:Ljava/lang/Object;
    return-void
.end method
