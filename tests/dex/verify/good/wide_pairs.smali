# Long and double pairs: arithmetic, an overlapping move-wide (defined), a constant
# joined with a long, shifts by an int, conversions, wide arguments (35c and range),
# move-result-wide, return-wide.
.class public LGoodWidePairs;
.super Ljava/lang/Object;

.method public static f(JDZ)J
    .registers 11
    if-eqz v10, :c
    move-wide v0, v6
    goto :j
    :c
    const-wide/16 v0, 0x10
    :j
    add-long/2addr v0, v6
    const/4 v2, 3
    shl-long v0, v0, v2
    move-wide v1, v0
    move-wide v0, v1
    double-to-long v2, v8
    add-long v0, v0, v2
    long-to-int v4, v0
    int-to-double v2, v4
    add-double/2addr v2, v8
    cmpl-double v4, v2, v8
    invoke-static {v0, v1}, Ljava/lang/Long;->valueOf(J)Ljava/lang/Long;
    invoke-static/range {v2 .. v3}, Ljava/lang/Math;->abs(D)D
    move-result-wide v2
    double-to-long v2, v2
    sub-long/2addr v0, v2
    return-wide v0
.end method
