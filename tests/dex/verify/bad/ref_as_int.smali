# rule: add-int needs int-like operands; a reference is not one
# expect: v1 is Ljava/lang/String;, expected int
.class public LBadRefAsInt;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/String;)I
    .registers 2
    add-int/lit8 v0, v1, 1
    return v0
.end method
