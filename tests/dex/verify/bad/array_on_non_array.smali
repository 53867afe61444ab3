# rule: array operands are arrays (or null)
# expect: v1 is Ljava/lang/String;, expected an array
.class public LBadArrayOnNonArray;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/String;)I
    .registers 2
    array-length v0, v1
    return v0
.end method
