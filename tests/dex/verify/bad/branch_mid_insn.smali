# rule: branch targets are instruction starts; the test points the goto (code unit 3)
# at unit 5, inside the const at 4..6
# patch: unit 3 = 0x0228
# expect: branch target 5 is not the start of an instruction
.class public LBadBranchMidInsn;
.super Ljava/lang/Object;

.method public static f()V
    .registers 2
    const v0, 0x7e57ca5e
    goto :x
    :x
    const v1, 0x12345678
    return-void
.end method
