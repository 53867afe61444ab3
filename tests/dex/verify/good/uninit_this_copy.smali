# Constructors: copies of uninitialized this made with move-object all become
# initialized by the one <init> call; a field of the own class may be stored on
# uninitialized this before it (javac's this$0); static calls that do not use this are
# legal before super() (the instrumenter's entry probe goes there).
.class public LGoodUninitThisCopy;
.super Ljava/lang/Object;

.field final outer:Ljava/lang/Object;

.method public constructor <init>(Ljava/lang/Object;)V
    .registers 4
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    iput-object v3, v2, LGoodUninitThisCopy;->outer:Ljava/lang/Object;
    move-object v1, v2
    invoke-direct {v1}, Ljava/lang/Object;-><init>()V
    invoke-virtual {v2}, Ljava/lang/Object;->hashCode()I
    const/16 v0, 0x2a
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-void
.end method

.method public constructor <init>()V
    .registers 2
    const/4 v0, 0
    invoke-direct {p0, v0}, LGoodUninitThisCopy;-><init>(Ljava/lang/Object;)V
    return-void
.end method
