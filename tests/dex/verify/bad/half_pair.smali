# rule: writing one half of a wide pair kills the pair (CheckWidePair on the read)
# expect: v0/v1 is not a long pair
.class public LBadHalfPair;
.super Ljava/lang/Object;

.method public static f()J
    .registers 2
    const-wide/16 v0, 5
    const/4 v1, 0
    return-wide v0
.end method
