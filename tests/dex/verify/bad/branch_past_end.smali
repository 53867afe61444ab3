# rule: a branch target lies inside the code (CheckBranchTarget: "invalid branch target"); the
# test moves the goto (code unit 3) 64 units on, past the end
# patch: unit 3 = 0x4028
# expect: branch target 67 is not the start of an instruction
.class public LBadBranchPastEnd;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    goto :end
    :end
    return-void
.end method
