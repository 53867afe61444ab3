# rule: move-result must directly follow an invoke or filled-new-array
# expect: move-result does not directly follow an invoke or filled-new-array
.class public LBadMoveResultNotAfterInvoke;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 2
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    const/16 v0, 0x2a
    move-result v0
    return v0
.end method
