# rule: only goto/32 may branch to itself (CheckBranchTarget: "branch offset of zero not allowed")
# expect: branch offset 0 (only goto/32 may target itself)
.class public LBadBranchToSelf;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    :self
    goto :self
.end method
