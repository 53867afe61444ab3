# rule: every argument register of a 35c invoke is below registers_size (CheckVarArgRegs)
# expect: register v2 out of range (registers_size 2)
.class public LBadRegisterInvokeArgOutOfRange;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const/4 v0, 0
    invoke-static {v0, v2}, LBadRegisterInvokeArgOutOfRange;->g(II)V
    return-void
.end method

.method public static g(II)V
    .registers 2
    return-void
.end method
