# rule: switch targets are instruction starts (CheckSwitchTargets: "invalid switch target"); the
# test points the only target (code units 12-13, relative to the switch at 3) at unit 1
# patch: unit 12 = 0xfffe
# patch: unit 13 = 0xffff
# expect: switch target 1 is not the start of an instruction
.class public LBadSwitchTargetMidInsn;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    packed-switch v0, :p
    return-void
    :a
    return-void
    :p
    .packed-switch 0x0
        :a
    .end packed-switch
.end method
