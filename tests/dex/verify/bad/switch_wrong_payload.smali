# rule: a switch points at a payload of its own kind (CheckSwitchTargets: "wrong signature for
# switch table"); the test points the packed-switch (offset at code unit 4) at the array-data
# patch: unit 4 = 11
# expect: no packed-switch payload at 14
.class public LBadSwitchWrongPayload;
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
    :d
    .array-data 4
        0x1
    .end array-data
.end method
