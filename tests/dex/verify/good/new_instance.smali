# new-instance, a copy, <init> through the copy, the original used afterwards; the same
# new-instance executed again in a loop (the earlier object is then dead).
.class public LGoodNewInstance;
.super Ljava/lang/Object;

.method public static f(I)Ljava/lang/String;
    .registers 4
    const/4 v2, 0
    :loop
    new-instance v0, Ljava/lang/StringBuilder;
    move-object v1, v0
    invoke-direct {v1}, Ljava/lang/StringBuilder;-><init>()V
    invoke-virtual {v0, v3}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;
    move-result-object v1
    add-int/lit8 v2, v2, 1
    if-lt v2, v3, :loop
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method
