# Seed: an inner class, an interface and a static initializer.
.class Ltc/seed/Shapes$Inner;
.super Ljava/lang/Object;
.implements Ljava/lang/Runnable;

.field static seen:Z

.method static constructor <clinit>()V
    .registers 1
    const/4 v0, 0x1
    sput-boolean v0, Ltc/seed/Shapes$Inner;->seen:Z
    return-void
.end method

.method constructor <init>()V
    .registers 2
    new-instance v0, Ljava/lang/StringBuilder;
    invoke-direct {v0}, Ljava/lang/StringBuilder;-><init>()V
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

.method public run()V
    .registers 3
    const-string v0, "run"
    const-string v1, "x"
    invoke-static {v0, v1}, Ljava/lang/String;->valueOf(Ljava/lang/Object;)Ljava/lang/String;
    return-void
.end method
