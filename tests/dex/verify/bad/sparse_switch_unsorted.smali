# rule: a sparse-switch's keys ascend (CheckSwitchTargets: "invalid sparse switch"); smali sorts
# them, so the test sets the second key (code unit 12) to the first
# patch: unit 12 = 1
# expect: sparse-switch keys not ascending at entry 1
.class public LBadSparseSwitchUnsorted;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    sparse-switch v0, :s
    return-void
    :a
    return-void
    :s
    .sparse-switch
        0x1 -> :a
        0x2 -> :a
    .end sparse-switch
.end method
