# rule: int and float are different categories (int-to-long needs an int)
# expect: v2 is float, expected int
.class public LBadFloatAsInt;
.super Ljava/lang/Object;

.method public static f(F)J
    .registers 3
    int-to-long v0, v2
    return-wide v0
.end method
