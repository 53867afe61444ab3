# rule: the return instruction matches the proto's return category
# expect: return-object in a method returning I
.class public LBadReturnObjectInInt;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 1
    return-object v0
.end method
