# rule: new-array makes an array type (CheckNewArray: "can't new-array class ... (not an array)")
# expect: new-array of a non-array type Ljava/lang/String;
.class public LBadNewArrayOfClass;
.super Ljava/lang/Object;

.method public static f()V
    .registers 1
    const/4 v0, 1
    new-array v0, v0, Ljava/lang/String;
    return-void
.end method
