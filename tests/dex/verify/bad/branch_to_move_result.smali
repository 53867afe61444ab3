# rule: nothing may branch to a move-result
# expect: branch target 4 is a move-result
.class public LBadBranchToMoveResult;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 2
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    goto :r
    :r
    move-result v0
    return v0
.end method
