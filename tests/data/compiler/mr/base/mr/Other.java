package mr;

public class Other {
    public static void main(String[] args) {
        System.out.println(new Api().version() + new Api().work(args.length));
    }
}
