# rule: return in an int method needs an int-like register
# expect: v0 is float, expected int
.class public LBadReturnFloatAsInt;
.super Ljava/lang/Object;

.method public static f(F)I
    .registers 1
    return v0
.end method
