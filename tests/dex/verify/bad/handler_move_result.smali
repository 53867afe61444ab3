# rule: an exception handler may not begin with move-result
# expect: exception handler at 3 begins with move-result
.class public LBadHandlerMoveResult;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 2
    :try_start
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    :try_end
    .catchall {:try_start .. :try_end} :h
    :h
    move-result v0
    return v0
.end method
