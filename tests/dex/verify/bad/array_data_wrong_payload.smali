# rule: fill-array-data points at an array-data payload (CheckArrayData, FILL_ARRAY_DATA:
# "invalid magic for array-data"); the test points it (offset at code unit 10) at the switch's
# patch: unit 10 = 5
# expect: no array-data payload at 14
.class public LBadArrayDataWrongPayload;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const v0, 0x7e57ca5e
    packed-switch v0, :p
    const/4 v0, 1
    new-array v0, v0, [I
    fill-array-data v0, :d
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
