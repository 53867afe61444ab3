# rule: before this() or super(), a constructor may touch only fields its own class declares
# (GetInstanceField on uninitialized this; a field id naming this class but declared above is not one)
# expect: v1 is uninitialized this, expected an initialized reference (field access)
.class public LBadUninitThisInheritedField;
.super Ljava/lang/Object;

.method public constructor <init>()V
    .registers 2
    const/4 v0, 0
    iput v0, p0, LBadUninitThisInheritedField;->inherited:I
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method
