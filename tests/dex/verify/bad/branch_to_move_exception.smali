# rule: nothing may branch to a move-exception
# expect: invalid use of move-exception: branch target
.class public LBadBranchToMoveException;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)V
    .registers 3
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    :try_end
    .catchall {:try_start .. :try_end} :h
    goto :h
    :h
    move-exception v1
    throw v1
.end method
