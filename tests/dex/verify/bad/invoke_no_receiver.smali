# rule: an invoke other than static and custom passes at least the receiver
# (kVerifyVarArgNonZero: "invalid arg count (0) in non-range invoke")
# expect: invalid arg count (0) in non-range invoke
.class public LBadInvokeNoReceiver;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    invoke-virtual {}, LBadInvokeNoReceiver;->g()V
    return-void
.end method

.method public g()V
    .registers 1
    return-void
.end method
