# rule: a packed-switch's keys (first_key + i) must not overflow int
# (CheckAndMarkSwitchTargets)
# expect: packed-switch keys overflow int from 2147483647
.class public LBadPackedSwitchOverflow;
.super Ljava/lang/Object;

.method public static f(I)V
    .registers 1
    packed-switch v0, :t
    :a
    return-void
    :t
    .packed-switch 0x7fffffff
        :a
        :a
    .end packed-switch
.end method
