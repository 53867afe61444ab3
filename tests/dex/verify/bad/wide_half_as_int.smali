# rule: a half of a wide pair is not a 32-bit value
# expect: v2 is the high half of a long, expected int
.class public LBadWideHalfAsInt;
.super Ljava/lang/Object;

.method public static f(J)I
    .registers 3
    add-int/lit8 v0, v2, 1
    return v0
.end method
