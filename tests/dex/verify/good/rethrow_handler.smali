# A typed handler and a catch-all; the catch-all rethrows; the handler sees the state
# before the throwing instruction (v0 still the String, not the int result).
.class public LGoodRethrowHandler;
.super Ljava/lang/Object;

.method public static f(Ljava/lang/Object;)I
    .registers 3
    const-string v0, "x"
    :try_start
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    move-result v0
    :try_end
    .catch Ljava/lang/IllegalStateException; {:try_start .. :try_end} :typed
    .catchall {:try_start .. :try_end} :all
    return v0
    :typed
    move-exception v1
    invoke-virtual {v0}, Ljava/lang/String;->length()I
    move-result v0
    return v0
    :all
    move-exception v1
    throw v1
.end method
