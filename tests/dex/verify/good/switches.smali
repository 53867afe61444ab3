# packed-switch and sparse-switch payloads (targets relative to the switch, a backward
# switch reaching the same targets), fill-array-data of an int array, filled-new-array with its
# move-result-object.
.class public LGoodSwitches;
.super Ljava/lang/Object;

.method public static f(I)I
    .registers 4
    packed-switch v3, :p
    sparse-switch v3, :s
    const/4 v0, 0
    goto :done
    :a
    const/4 v0, 1
    goto :done
    :b
    const/16 v0, 0x64
    packed-switch v0, :p2
    goto :done
    :done
    const/4 v1, 3
    new-array v1, v1, [I
    fill-array-data v1, :arr
    aget v2, v1, v0
    filled-new-array {v0, v2}, [I
    move-result-object v1
    array-length v1, v1
    add-int/2addr v0, v1
    return v0
    :p
    .packed-switch 0x1
        :a
        :b
    .end packed-switch
    :p2
    .packed-switch 0x63
        :done
        :a
    .end packed-switch
    :s
    .sparse-switch
        -0x5 -> :a
        0x7 -> :b
        0x3e8 -> :a
    .end sparse-switch
    :arr
    .array-data 4
        0x1
        0x2
        0x3
    .end array-data
.end method
