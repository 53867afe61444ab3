# api: 28
# Dex 039 (API 28): const-method-handle and const-method-type give references
# (MethodHandle, MethodType), usable as receiver and argument.
.class public LGoodConstMethodHandle;
.super Ljava/lang/Object;

.method public static f()Ljava/lang/Object;
    .registers 2
    const-method-handle v0, invoke-static@Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
    const-method-type v1, (I)Ljava/lang/Integer;
    invoke-virtual {v0, v1}, Ljava/lang/invoke/MethodHandle;->asType(Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;
    move-result-object v0
    return-object v0
.end method
