# api: 28
# rule: a reference (here the MethodType of a dex 039 const-method-type) is not int-like;
# this file has no type id for MethodType, so the value is "a reference"
# expect: v1 is a reference, expected int
.class public LBadConstMethodTypeAsInt;
.super Ljava/lang/Object;

.method public static g()I
    .registers 2
    const-method-type v1, (I)Ljava/lang/Integer;
    add-int/lit8 v0, v1, 1
    return v0
.end method
