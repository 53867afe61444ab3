# rule: the move-result form matches the result's category (CopyResultRegister2: "copyRes2")
# expect: move-result-wide of int
.class public LBadMoveResultWideOfInt;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    invoke-static {}, LBadMoveResultWideOfInt;->g()I
    move-result-wide v0
    return-void
.end method

.method public static g()I
    .registers 1
    const/4 v0, 0
    return v0
.end method
