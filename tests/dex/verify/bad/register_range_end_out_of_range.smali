# rule: a range ends below registers_size: vC + count <= registers_size (CheckVarArgRangeRegs)
# expect: register v2 out of range (registers_size 2)
.class public LBadRegisterRangeEndOutOfRange;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v1, 0
    invoke-static/range {v1 .. v2}, LBadRegisterRangeEndOutOfRange;->g(II)V
    return-void
.end method

.method public static g(II)V
    .registers 2
    return-void
.end method
