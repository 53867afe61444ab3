# rule: fill-array-data's element width is the array's (FILL_ARRAY_DATA: "array-data size mismatch")
# expect: fill-array-data of 2-byte elements into an array of I
.class public LBadFillArrayDataWidth;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 2
    new-array v0, v0, [I
    fill-array-data v0, :data
    return-void
    :data
    .array-data 2
        0x1s
        0x2s
    .end array-data
.end method
