# Values ART lets methods of a narrow return type return (VerifyRegisterType, with the
# RETURN rule that an int, or a byte in a boolean method, is taken as it is): 0 and 1 and
# boolean results (instance-of; and/or/xor of booleans) as boolean; int-to-byte as byte; a
# char parameter and the constant 65535 as char; computed ints as any of them; a null
# array's aget-boolean as boolean.
.class public LGoodNarrowValues;
.super Ljava/lang/Object;

.method public static z0()Z
    .registers 1
    const/4 v0, 0
    return v0
.end method

.method public static z1(Ljava/lang/Object;)Z
    .registers 2
    instance-of v0, p0, Ljava/lang/String;
    const/4 v1, 1
    xor-int/2addr v0, v1
    return v0
.end method

.method public static zb(B)Z
    .registers 1
    return p0
.end method

.method public static zi(I)Z
    .registers 1
    add-int/lit8 p0, p0, 1
    return p0
.end method

.method public static b(I)B
    .registers 1
    int-to-byte p0, p0
    return p0
.end method

.method public static c(C)C
    .registers 2
    if-eqz p0, :max
    return p0
    :max
    const v0, 0xffff
    return v0
.end method

.method public static s(I)S
    .registers 1
    mul-int/lit8 p0, p0, 3
    return p0
.end method

.method public static nullArray()Z
    .registers 2
    const/4 v0, 0
    const/4 v1, 0
    aget-boolean v0, v0, v1
    return v0
.end method
