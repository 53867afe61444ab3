# rule: move-object copies a reference (CopyRegister1 with kTypeCategoryRef)
# expect: v0 is the constant 1, expected a reference (move-object)
.class public LBadMoveObjectInt;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v0, 1
    move-object v1, v0
    return-void
.end method
