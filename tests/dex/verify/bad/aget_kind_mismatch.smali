# rule: an aget/aput form matches the array's component type exactly (VerifyAGet: "array type
# ... incompatible with aget of type"), but for aget/aput on float arrays and the wide forms on double
# expect: array of C accessed as B
.class public LBadAgetKindMismatch;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v1, 1
    new-array v0, v1, [C
    const/4 v1, 0
    aget-byte v1, v0, v1
    return-void
.end method
