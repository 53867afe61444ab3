# Null constants as references (array operands, receivers, throw), arrays of
# references (aget-object gives the component), instance-of and if-eq on references.
.class public LGoodNullAndArrays;
.super Ljava/lang/Object;

.method public static f([Ljava/lang/String;Ljava/lang/Object;)I
    .registers 6
    const/4 v0, 0
    aget-object v1, v4, v0
    invoke-virtual {v1}, Ljava/lang/String;->length()I
    move-result v2
    instance-of v3, v5, Ljava/lang/String;
    if-eqz v3, :n
    check-cast v5, Ljava/lang/String;
    if-eq v5, v1, :n
    add-int/2addr v2, v3
    :n
    array-length v3, v4
    add-int/2addr v2, v3
    const/4 v1, 0
    if-nez v2, :r
    throw v1
    :r
    aput-object v1, v4, v0
    return v2
.end method
