# Constants serve as int or float; float arithmetic; a float field through plain iget,
# float arrays through plain aget/aput (no get-float instruction exists).
.class public LGoodFloatAndConsts;
.super Ljava/lang/Object;

.field f:F

.method public g([F)F
    .registers 6
    const/high16 v0, 0x3f800000
    iget v1, v4, LGoodFloatAndConsts;->f:F
    add-float/2addr v1, v0
    const/4 v2, 0
    aget v3, v5, v2
    mul-float/2addr v1, v3
    aput v1, v5, v2
    iput v1, v4, LGoodFloatAndConsts;->f:F
    float-to-int v2, v1
    int-to-float v2, v2
    cmpg-float v3, v1, v2
    if-gez v3, :x
    return v0
    :x
    return v1
.end method
