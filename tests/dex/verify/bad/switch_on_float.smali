# rule: a switch's operand is integral (PACKED_SWITCH, SPARSE_SWITCH: VerifyRegisterType Integer)
# expect: v0 is float, expected int
.class public LBadSwitchOnFloat;
.super Ljava/lang/Object;

.method public static f(F)V
    .registers 1
    packed-switch p0, :p
    return-void
    :a
    return-void
    :p
    .packed-switch 0x0
        :a
    .end packed-switch
.end method
