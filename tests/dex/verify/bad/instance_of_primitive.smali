# rule: instance-of names a reference type ("instance-of on unexpected class")
# expect: instance-of a primitive type J
.class public LBadInstanceOfPrimitive;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)Z
    .registers 2
    instance-of v0, p0, J
    return v0
.end method
