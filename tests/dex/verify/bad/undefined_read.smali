# rule: reading an Undefined register is an error (v1 is written on no path)
# expect: v1 is undefined, expected int
.class public LBadUndefinedRead;
.super Ljava/lang/Object;

.method public static f(I)I
    .registers 3
    add-int v0, v1, v2
    return v0
.end method
