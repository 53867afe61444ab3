# rule: a thrown exception is initialized ("thrown exception not initialized")
# expect: v0 is uninitialized Ljava/lang/RuntimeException; (new-instance at 0), expected an initialized reference
.class public LBadThrowUninit;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    new-instance v0, Ljava/lang/RuntimeException;
    throw v0
.end method
